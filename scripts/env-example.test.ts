// .env.example is where a newcomer learns the configuration: its examples
// must name what exists. (The limits' numbers live in
// supabase/functions/_shared/db/limits.ts; docs/security-and-limits.md "Abuse limits".)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS, parseLimitOverrides } from '../supabase/functions/_shared/db/limits.ts';
import { ROOT } from './lib/root.ts';

afterEach(() => vi.restoreAllMocks());

describe('.env.example', () => {
  it('its RATE_LIMITS example names only limits that exist, each well formed', () => {
    const example = /^# RATE_LIMITS=(.+)$/m.exec(readFileSync(path.join(ROOT, '.env.example'), 'utf8'))?.[1];
    expect(example).toBeTruthy();
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const names = Object.keys(parseLimitOverrides(example));
    expect(log).not.toHaveBeenCalled();
    expect(names).toHaveLength(example!.split(',').length);
    for (const name of names) expect(DEFAULT_LIMITS).toHaveProperty([name]);
  });
});
