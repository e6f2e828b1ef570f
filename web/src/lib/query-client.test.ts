import { beforeEach, describe, expect, it } from 'vitest';
import { GUEST_SECRET_MISSING, REMOVED_FROM_PLAN } from '../../../supabase/functions/_shared/contract/guest-secret';
import { ApiError } from './api-error';
import { clearGuest, getGuestSession, getRemovedGuestSecret, setGuestSession } from './guest-storage';
import { createQueryClient } from './query-client';

const stored = { id: 'g1', name: 'Gus', planId: 'p1', secret: 'device-secret' };

async function failWrite(error: Error): Promise<void> {
  const client = createQueryClient();
  await client
    .getMutationCache()
    .build(client, { mutationFn: () => Promise.reject(error) })
    .execute(undefined)
    .catch(() => {});
}

beforeEach(() => {
  localStorage.clear();
  clearGuest();
  setGuestSession(stored);
});

describe('a refused guest write', () => {
  it('without a valid secret: keeps who the guest was, drops the secret ("Is this you?" next)', async () => {
    await failWrite(new ApiError(401, 'Unauthorized', GUEST_SECRET_MISSING));
    expect(getGuestSession()).toEqual({ id: 'g1', name: 'Gus', planId: 'p1' });
  });

  it('of a guest that is gone (left on another device): forgets the guest (the join page next)', async () => {
    await failWrite(new ApiError(404, 'Not Found', 'Guest not found'));
    expect(getGuestSession()).toBeNull();
  });

  it('of a guest the host removed: forgets the guest, keeps that it was removed from the plan, with its secret', async () => {
    await failWrite(new ApiError(403, 'Forbidden', REMOVED_FROM_PLAN));
    expect(getGuestSession()).toBeNull();
    expect(getRemovedGuestSecret('p1')).toBe('device-secret');
    expect(getRemovedGuestSecret('p2')).toBeNull();
    // Let in again (allowed back): the device is no longer marked.
    setGuestSession({ ...stored, id: 'g2', secret: 'new-secret' });
    expect(getRemovedGuestSecret('p1')).toBeNull();
  });

  it("of a signed-in member the host removed: the stored guest is not the one refused", async () => {
    localStorage.setItem('authToken', 'test-token');
    await failWrite(new ApiError(403, 'Forbidden', REMOVED_FROM_PLAN));
    expect(getGuestSession()).toEqual(stored);
    expect(getRemovedGuestSecret('p1')).toBeNull();
  });

  it('for any other reason: keeps the guest as it is', async () => {
    await failWrite(new ApiError(404, 'Not Found', 'Idea not found'));
    await failWrite(new ApiError(403, 'Forbidden', 'This can only be done from the device that joined as Gus'));
    expect(getGuestSession()).toEqual(stored);
  });
});
