import { describe, expect, it } from 'vitest';
import { missingMantineClasses } from './mantine-css-check';

describe('mantine css check', () => {
  it('names the Mantine classes of the JavaScript that the CSS lacks', () => {
    const js = 'var c={root:`m_77c9d27d`,inner:`m_80f1301b`,"loader-animation":`m_5d2b3b9d`};const x=`m_77c9d27d`;';
    const css = '.m_77c9d27d{display:block}@keyframes m_5d2b3b9d{0%{opacity:0}}';
    expect(missingMantineClasses(js, css)).toEqual(['m_80f1301b']);
  });

  it('finds nothing missing when every class has its rules, and ignores longer look-alikes', () => {
    expect(missingMantineClasses('`m_836192` `m_5ae2e3c`', '.m_836192{}.m_5ae2e3c{}')).toEqual([]);
    expect(missingMantineClasses('`m_836192`', '.m_8361921{}')).toEqual(['m_836192']);
  });
});
