import { describe, expect, it } from 'vitest';
import { hoistStyleAttributes, shellTemplates } from './shell-templates';

describe('prerendered shells', () => {
  it('moves style attributes into rules that win as inline styles do (CSP: no style attributes)', () => {
    const { html, css } = hoistStyleAttributes(
      '<div style="--title-fw:800;padding-top:var(--mantine-spacing-md)"><p class="x" style="background:linear-gradient(180deg, red 0%, white 100%);font-family:&quot;Segoe UI&quot;">Hi</p></div>',
      'l',
    );
    expect(html).toBe('<div data-shell-style="l0"><p class="x" data-shell-style="l1">Hi</p></div>');
    expect(css).toBe(
      '[data-shell-style="l0"]{--title-fw:800 !important;padding-top:var(--mantine-spacing-md) !important}' +
        '[data-shell-style="l1"]{background:linear-gradient(180deg, red 0%, white 100%) !important;font-family:"Segoe UI" !important}',
    );
  });

  it('makes one template per shell, a plan shell with its statuses, and one stylesheet before them with the rules of all', () => {
    const templates = shellTemplates(
      {
        landing: { markup: '<h1 style="color:red">A</h1>' },
        join: { markup: '<p style="margin:0">B</p>' },
        splash: { markup: '<p>D</p>' },
        'join-active': { markup: '<p style="margin:1px">C</p>', planStatuses: ['date_locked', 'completed'], planSlug: 'shell-slug' },
      },
      'https://api.example.com',
    );
    expect(templates.split('\n    ')).toEqual([
      '<style id="shell-styles">[data-shell-style="s0-0"]{color:red !important}[data-shell-style="s1-0"]{margin:0 !important}[data-shell-style="s3-0"]{margin:1px !important}</style>',
      '<template id="shell-landing" data-api="https://api.example.com"><h1 data-shell-style="s0-0">A</h1></template>',
      '<template id="shell-join" data-api="https://api.example.com"><p data-shell-style="s1-0">B</p></template>',
      '<template id="shell-splash" data-api="https://api.example.com"><p>D</p></template>',
      '<template id="shell-join-active" data-api="https://api.example.com" data-plan-statuses="date_locked completed" data-plan-slug="shell-slug"><p data-shell-style="s3-0">C</p></template>',
    ]);
    expect(templates).not.toMatch(/ style=/);
  });
});
