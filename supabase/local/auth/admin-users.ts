/**
 * `/auth/v1/admin/users`: user management for the service role (the admin edge function
 * and scripts). Metadata updates shallow-merge, and a key set to null is removed.
 */
import bcrypt from 'bcryptjs';
import type { Database } from '../db/database.ts';
import type { Reply } from '../http.ts';
import { jsonReply } from '../http.ts';
import type { StackRequest } from '../request.ts';
import { checkPassword, createUser, findUser, mergeMetadata, userJson } from './users.ts';

type ErrorReply = (status: number, code: string, message: string, extra?: Record<string, unknown>) => Reply;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function listUsers(req: StackRequest, db: Database): Promise<Reply> {
  const page = Math.max(1, Number.parseInt(req.url.searchParams.get('page') ?? '1', 10) || 1);
  const perPage = Math.min(1000, Math.max(1, Number.parseInt(req.url.searchParams.get('per_page') ?? '50', 10) || 50));
  const { rows } = await db.query<{ u: unknown; total: number }>(
    `select to_jsonb(u) as u, count(*) over ()::integer as total from auth.users u
     where u.deleted_at is null order by u.created_at, u.id limit $1 offset $2`,
    [perPage, (page - 1) * perPage],
  );
  const total =
    rows[0]?.total ??
    (await db.query<{ n: number }>('select count(*)::integer as n from auth.users where deleted_at is null')).rows[0]
      ?.n ??
    0;
  const users = rows.map((row) => userJson((typeof row.u === 'string' ? JSON.parse(row.u) : row.u) as never));
  const last = Math.max(1, Math.ceil(total / perPage));
  const link = (p: number, rel: string) => `</admin/users?page=${p}&per_page=${perPage}>; rel="${rel}"`;
  const links = [link(last, 'last'), ...(page < last ? [link(page + 1, 'next')] : [])];
  return jsonReply(200, { users, aud: 'authenticated' }, { 'X-Total-Count': String(total), Link: links.join(', ') });
}

async function updateUser(id: string, body: Record<string, unknown>, db: Database, fail: ErrorReply): Promise<Reply> {
  const user = await findUser(db, { id });
  if (!user) return fail(404, 'user_not_found', 'User not found');
  const weak = checkPassword(body.password);
  if (weak) return fail(weak.status, weak.code, weak.message, weak.extra);
  let email = user.email;
  if (body.email !== undefined) {
    if (typeof body.email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(body.email.trim())) {
      return fail(400, 'validation_failed', 'Unable to validate email address: invalid format');
    }
    email = body.email.trim().toLowerCase();
    const holder = await findUser(db, { email });
    if (holder && holder.id !== id) {
      return fail(422, 'email_exists', 'A user with this email address has already been registered');
    }
  }
  await db.query(
    `update auth.users set email = $2, encrypted_password = coalesce($3, encrypted_password),
       email_confirmed_at = case when $4 then coalesce(email_confirmed_at, now()) else email_confirmed_at end,
       raw_app_meta_data = $5::jsonb, raw_user_meta_data = $6::jsonb, updated_at = now()
     where id = $1`,
    [
      id,
      email,
      typeof body.password === 'string' ? await bcrypt.hash(body.password, 10) : null,
      body.email_confirm === true,
      JSON.stringify(mergeMetadata(user.raw_app_meta_data, body.app_metadata)),
      JSON.stringify(mergeMetadata(user.raw_user_meta_data, body.user_metadata)),
    ],
  );
  const updated = await findUser(db, { id });
  return jsonReply(200, updated ? userJson(updated) : null);
}

export async function handleAdminUsers(
  req: StackRequest,
  body: Record<string, unknown>,
  db: Database,
  fail: ErrorReply,
): Promise<Reply> {
  const id = req.path.slice('/admin/users/'.length);
  if (req.path === '/admin/users' || req.path === '/admin/users/') {
    if (req.method === 'GET') return listUsers(req, db);
    if (req.method === 'POST') {
      const created = await createUser(db, body);
      return created.ok
        ? jsonReply(200, userJson(created.user))
        : fail(created.status, created.code, created.message, created.extra);
    }
    return fail(405, 'method_not_allowed', 'Method not allowed');
  }
  if (!uuidPattern.test(id)) return fail(404, 'user_not_found', 'User not found');
  if (req.method === 'GET') {
    const user = await findUser(db, { id });
    return user ? jsonReply(200, userJson(user)) : fail(404, 'user_not_found', 'User not found');
  }
  if (req.method === 'PUT') return updateUser(id, body, db, fail);
  if (req.method === 'DELETE') {
    const { affectedRows } = await db.query('delete from auth.users where id = $1', [id]);
    return affectedRows > 0 ? jsonReply(200, {}) : fail(404, 'user_not_found', 'User not found');
  }
  return fail(405, 'method_not_allowed', 'Method not allowed');
}
