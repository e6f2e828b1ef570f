// Supabase's security and performance advisors (`supabase db advisors`, the
// splinter lints) on the migrated database, every domain's tables at once: no
// ERROR, no WARN. INFO findings are allowed only of the kinds listed (with the
// reason) in docs/data-model.md.
import { describe, expect, it } from 'vitest';
import { runAdvisors } from '../../scripts/lib/db.ts';
import { useFreshDatabase } from '../support/db.ts';

// unused_index: on a fresh database no index has been scanned yet.
const ACCEPTED_INFO = new Set(['unused_index']);

interface Finding {
  name: string;
  level: 'ERROR' | 'WARN' | 'INFO';
  detail: string;
}

const db = useFreshDatabase();

/** The CLI prints a "Target: ..." line, then a JSON array or "No issues found". */
function parseFindings(output: string): Finding[] {
  if (/No issues found/.test(output)) return [];
  const start = output.indexOf('[');
  const end = output.lastIndexOf(']');
  if (start < 0 || end < start) throw new Error(`Unexpected advisors output:\n${output}`);
  return JSON.parse(output.slice(start, end + 1)) as Finding[];
}

describe('supabase db advisors', () => {
  it('report no ERROR or WARN, and only accepted INFO kinds', { timeout: 120_000 }, async () => {
    const { output } = await runAdvisors(db.url);
    const findings = parseFindings(output);
    const show = (fs: Finding[]) => fs.map((f) => `${f.level} ${f.name}: ${f.detail}`).join('\n');
    const serious = findings.filter((f) => f.level !== 'INFO');
    expect(serious, `advisors found:\n${show(serious)}`).toEqual([]);
    const unexpected = findings.filter((f) => f.level === 'INFO' && !ACCEPTED_INFO.has(f.name));
    expect(unexpected, `undocumented INFO findings:\n${show(unexpected)}`).toEqual([]);
  });

  it('would catch a problem (the parser is not blind)', () => {
    const sample = `Target: x\n[{"name":"rls_disabled_in_public","level":"ERROR","detail":"Table t"}]`;
    expect(parseFindings(sample)).toHaveLength(1);
    expect(parseFindings('Target: x\nNo issues found')).toEqual([]);
  });
});
