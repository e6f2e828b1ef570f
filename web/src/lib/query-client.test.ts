import { beforeEach, describe, expect, it } from 'vitest';
import { GUEST_SECRET_MISSING } from '../../../supabase/functions/_shared/contract/guest-secret';
import { ApiError } from './api-error';
import { clearGuest, getGuestSession, setGuestSession } from './guest-storage';
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

  it('of a guest that is gone (removed by the host, or left elsewhere): forgets the guest (the join page next)', async () => {
    await failWrite(new ApiError(404, 'Not Found', 'Guest not found'));
    expect(getGuestSession()).toBeNull();
  });

  it('for any other reason: keeps the guest as it is', async () => {
    await failWrite(new ApiError(404, 'Not Found', 'Idea not found'));
    await failWrite(new ApiError(403, 'Forbidden', 'This can only be done from the device that joined as Gus'));
    expect(getGuestSession()).toEqual(stored);
  });
});
