import type { ReactNode } from 'react';
import { Icon, type IconProps } from '../../../components/icons';

// The catalogue's icons by name (spec §2 Interests: gamepad, utensils, tree,
// globe, coffee, music, film, book), drawn like components/icons.tsx: 24px
// grid, currentColor, decorative (aria-hidden).

const paths: Record<string, ReactNode> = {
  gamepad: (
    <>
      <path d="M7 8h10a5 5 0 0 1 4.9 6l-.6 3a2.5 2.5 0 0 1-4.4 1L15 16H9l-1.9 2a2.5 2.5 0 0 1-4.4-1l-.6-3A5 5 0 0 1 7 8z" />
      <path d="M7 11v3M5.5 12.5h3M15.5 12h.01M17.5 14h.01" />
    </>
  ),
  utensils: (
    <>
      <path d="M5 3v7a2 2 0 0 0 2 2h0a2 2 0 0 0 2-2V3M7 3v18" />
      <path d="M17 21V3c-2 1-3 3.5-3 7v3h3" />
    </>
  ),
  tree: (
    <>
      <path d="M12 3l6 8h-3l4 5H5l4-5H6z" />
      <path d="M12 16v5" />
    </>
  ),
  globe: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
    </>
  ),
  coffee: (
    <>
      <path d="M4 9h13v5a5 5 0 0 1-5 5H9a5 5 0 0 1-5-5z" />
      <path d="M17 10h1.5a2.5 2.5 0 0 1 0 5H17M8 3v3M12 3v3" />
    </>
  ),
  music: (
    <>
      <path d="M9 18V5l11-2v13" />
      <circle cx="6" cy="18" r="3" />
      <circle cx="17" cy="16" r="3" />
    </>
  ),
  film: (
    <>
      <rect x="3" y="3" width="18" height="18" rx="2" />
      <path d="M7 3v18M17 3v18M3 8h4M3 12h18M3 16h4M17 8h4M17 16h4" />
    </>
  ),
  book: (
    <>
      <path d="M4 19.5V5a2 2 0 0 1 2-2h14v16H6.5A2.5 2.5 0 0 0 4 21.5z" />
      <path d="M4 19.5A2.5 2.5 0 0 1 6.5 17H20" />
    </>
  ),
};

/** A star stands in for an icon name the app does not know. */
const fallback = <path d="M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z" />;

export function InterestIcon({ name, ...props }: IconProps & { name: string }) {
  return (
    <Icon size={24} {...props}>
      {paths[name] ?? fallback}
    </Icon>
  );
}

export const IconX = (props: IconProps) => (
  <Icon size={14} {...props}>
    <path d="M6 6l12 12M18 6L6 18" />
  </Icon>
);
