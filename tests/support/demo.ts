/** The fixed ids of supabase/seed.sql, for tests that act as the demo accounts. */
export const demo = {
  storeA: '11111111-1111-4111-8111-111111111111',
  storeB: '22222222-2222-4222-8222-222222222222',
  adminId: 'aaaaaaaa-0000-4000-8000-000000000001',
  managerId: 'aaaaaaaa-0000-4000-8000-000000000002',
  otherId: 'aaaaaaaa-0000-4000-8000-000000000003',
  advisorA: 'cccccccc-0000-4000-8000-000000000001',
  password: 'demo1234',
} as const;
