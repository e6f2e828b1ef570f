// The account as GET /api/auth/me answers it (spec §3 User), read under the
// request's role: the users policy shows a caller its own row only, so a
// valid token whose account was deleted finds nothing (a dead session).
import type { User } from '../../../_shared/contract/auth.ts';
import type { Tx } from '../../../_shared/db/client.ts';

export async function findUser(tx: Tx, userId: string): Promise<User | undefined> {
  const [user] = await tx<User[]>`
    select id, email, first_name as "firstName", last_name as "lastName"
    from app.users where id = ${userId}::uuid`;
  return user;
}
