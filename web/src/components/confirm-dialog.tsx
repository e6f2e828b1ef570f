import type { ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';

interface ConfirmDialogProps {
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: string;
  message: ReactNode;
  /** More than a sentence (a list), under the message. */
  details?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Shown on the confirm button while the action runs; both buttons are then disabled. */
  pendingLabel?: string;
  pending?: boolean;
  color?: string;
}

/** A yes/no question in a modal dialog (role dialog, named by its title). */
export function ConfirmDialog({
  opened,
  onClose,
  onConfirm,
  title,
  message,
  details,
  confirmLabel,
  cancelLabel = 'Cancel',
  pendingLabel,
  pending = false,
  // Red 9: white text on it passes AA (Mantine's red 6 does not).
  color = 'red.9',
}: ConfirmDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={pending ? () => {} : onClose}
      title={title}
      centered
      radius="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Text>{message}</Text>
      {details}
      <Group justify="flex-end" mt="lg" gap="sm">
        {/* Focus starts on the safe answer: Enter never destroys by accident. */}
        <Button variant="default" onClick={onClose} disabled={pending} data-autofocus>
          {cancelLabel}
        </Button>
        <Button color={color} onClick={onConfirm} disabled={pending}>
          {pending && pendingLabel ? pendingLabel : confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
