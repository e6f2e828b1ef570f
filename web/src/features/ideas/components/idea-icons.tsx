import { Icon, type IconProps } from '../../../components/icons';

// The ideas feature's line icons, drawn like components/icons.tsx (24px grid,
// currentColor) and, like them, always decorative (aria-hidden).

export const IconThumbUp = (p: IconProps) => (
  <Icon size={18} {...p}>
    <path d="M7 11v9H4a1 1 0 0 1-1-1v-7a1 1 0 0 1 1-1h3z" />
    <path d="M7 11l4-8a2.5 2.5 0 0 1 2.5 2.5V9h5.2a2 2 0 0 1 2 2.3l-1.3 7A2 2 0 0 1 17.4 20H7" />
  </Icon>
);

export const IconSparkles = (p: IconProps) => (
  <Icon size={18} {...p}>
    <path d="M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8z" />
    <path d="M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z" />
  </Icon>
);

export const IconSend = (p: IconProps) => (
  <Icon size={18} {...p}>
    <path d="M21 3L10 14" />
    <path d="M21 3l-7 18-4-7-7-4z" />
  </Icon>
);

export const IconTrophy = (p: IconProps) => (
  <Icon size={18} {...p}>
    <path d="M8 21h8M12 17v4M7 4h10v5a5 5 0 0 1-10 0z" />
    <path d="M17 5h3v2a3 3 0 0 1-3 3M7 5H4v2a3 3 0 0 0 3 3" />
  </Icon>
);

export const IconCrown = (p: IconProps) => (
  <Icon size={18} {...p}>
    <path d="M3 7l4.5 4L12 5l4.5 6L21 7l-2 11H5z" />
  </Icon>
);

export const IconMessageCircle = (p: IconProps) => (
  <Icon size={18} {...p}>
    <path d="M21 12a8 8 0 0 1-11.6 7.1L3 21l1.9-6.4A8 8 0 1 1 21 12z" />
  </Icon>
);
