import { useId as mantineUseId } from '@mantine/hooks';
import { describe, expect, it } from 'vitest';
import { render, renderHook } from '@testing-library/react';
import { useId } from './mantine-use-id';

function Counted({ hook, onRender }: { hook: (staticId?: string) => string; onRender: (id: string) => void }) {
  const id = hook();
  onRender(id);
  return <input id={id} aria-label="field" />;
}

describe("the useId the build serves for Mantine's", () => {
  it('gives a component one id from its first render on, so mounting renders it once', () => {
    const ids: string[] = [];
    render(<Counted hook={useId} onRender={(id) => ids.push(id)} />);
    expect(ids).toHaveLength(1);
    expect(document.getElementById(ids[0]!)).not.toBeNull();
  });

  it("is what it replaces: Mantine's own renders every component that uses it a second time after mount", () => {
    const ids: string[] = [];
    render(<Counted hook={mantineUseId} onRender={(id) => ids.push(id)} />);
    expect(ids).toHaveLength(2);
    expect(ids[1]).not.toBe(ids[0]);
  });

  it('keeps the id across renders and gives each component its own', () => {
    const first = renderHook(() => useId());
    const second = renderHook(() => useId());
    const id = first.result.current;
    first.rerender();
    expect(first.result.current).toBe(id);
    expect(second.result.current).not.toBe(id);
  });

  it('is a valid HTML id and CSS identifier, prefixed like Mantine\'s', () => {
    const { result } = renderHook(() => useId());
    expect(result.current).toMatch(/^mantine-[\w-]+$/);
    const { container } = render(<input id={result.current} />);
    expect(container.querySelector(`#${result.current}`)).not.toBeNull();
  });

  it('gives a static id when the component was given one', () => {
    expect(renderHook(() => useId('email')).result.current).toBe('email');
  });
});
