// The host's "Show details in link previews" (docs/web-app.md "Link preview"):
// POST /api/plans/{id}/preview-details answers the plan JSON. Shown at once:
// the switch and the card change before the answer (off: the generic card,
// exactly what the contract's linkPreviewOf gives), and a refusal puts back
// both with the server's sentence. Like the host's other settings it needs
// the network (docs/offline.md); no outbox.
import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { apiPaths } from '../../lib/api-paths';
import { planKeys, previewKeys } from '../../lib/query-keys';
import { showErrorToast } from '../../lib/toast';
import { type Plan, planSchema } from '../../../../supabase/functions/_shared/contract/plans';
import { type LinkPreview, linkPreviewOf, type PreviewFacts } from '../../../../supabase/functions/_shared/contract/previews';
import type { PreviewDetailsInput } from '../../../../supabase/functions/_shared/contract/previews-requests';

export const SAVE_PREVIEW_DETAILS_FAILED = 'Failed to save the link preview setting';

/** With details off the card ignores the plan's facts (the generic card of every link). */
const NO_FACTS: PreviewFacts = { title: '', status: 'planning', hostName: null, date: null, eventTime: null, period: null, location: null, going: 0 };

/** The setting as the plan says it; a plan read before it existed has it on. */
export const previewDetailsOf = (plan: Pick<Plan, 'previewDetails'>): boolean => plan.previewDetails ?? true;

interface Shown {
  plan: Plan | undefined;
  card: LinkPreview | undefined;
}

export function useSetPreviewDetails(plan: Pick<Plan, 'id'>, slug: string) {
  const client = useQueryClient();
  const cardKey = previewKeys.card(plan.id, slug);
  const detailKey = planKeys.detail(plan.id);
  // The last card with details this page showed: turning them on again shows it at once.
  const detailed = useRef<LinkPreview | null>(null);

  /** The card as it will read with the setting `on`, before the server's. */
  function cardWith(card: LinkPreview, on: boolean): LinkPreview {
    if (!on) return linkPreviewOf(slug, card.version, NO_FACTS, false);
    return detailed.current ?? card;
  }

  return useMutation({
    // Under the plan's prefix: its live updates wait until the answer is in.
    mutationKey: planKeys.mutation(plan.id, 'preview-details'),
    mutationFn: async (previewDetails: boolean) => {
      const body: PreviewDetailsInput = { previewDetails };
      const res = await apiRequest('POST', apiPaths.previewDetails(plan.id), body);
      return planSchema.parse(await res.json());
    },
    onMutate: async (on): Promise<Shown> => {
      await Promise.all([client.cancelQueries({ queryKey: cardKey }), client.cancelQueries({ queryKey: detailKey })]);
      const shown: Shown = { plan: client.getQueryData<Plan>(detailKey), card: client.getQueryData<LinkPreview>(cardKey) };
      if (shown.card?.previewDetails) detailed.current = shown.card;
      if (shown.plan) client.setQueryData<Plan>(detailKey, { ...shown.plan, previewDetails: on });
      if (shown.card) client.setQueryData<LinkPreview>(cardKey, cardWith(shown.card, on));
      return shown;
    },
    onSuccess: (answer) => {
      client.setQueryData(detailKey, answer);
    },
    onError: (error, _on, shown) => {
      if (shown?.plan) client.setQueryData(detailKey, shown.plan);
      if (shown?.card) client.setQueryData(cardKey, shown.card);
      showErrorToast(error, SAVE_PREVIEW_DETAILS_FAILED);
    },
    // The server's card (the plan's version moved), and the plan's read by its link.
    onSettled: () => {
      void client.invalidateQueries({ queryKey: previewKeys.all(plan.id) });
      void client.invalidateQueries({ queryKey: planKeys.bySlug(slug) });
    },
  });
}
