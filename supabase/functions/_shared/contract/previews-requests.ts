// The link previews' requests (docs/api.md "Link previews").
import { z } from 'zod';
import { body } from './fields.ts';

/** POST /api/plans/{id}/preview-details: the host's "Show details in link previews". */
export const previewDetailsBody = body({
  previewDetails: z.boolean({ error: 'previewDetails must be true or false' }),
});
export type PreviewDetailsInput = z.input<typeof previewDetailsBody>;
