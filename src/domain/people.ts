/** How the app addresses a person, and how it reads the account's store and admin flag. */

export type AccountMetadata = {
  displayName?: unknown;
  firstName?: unknown;
  store_id?: unknown;
  is_admin?: unknown;
};

/** "Good morning" before 12:00, "Good afternoon" before 17:00, otherwise "Good evening". */
export function greeting(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 17) return 'Good afternoon';
  return 'Good evening';
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** The display name, else the first name, else the e-mail prefix, else "User". */
export function personName(metadata: AccountMetadata | null | undefined, email: string | null | undefined): string {
  return text(metadata?.displayName) ?? text(metadata?.firstName) ?? text(email?.split('@')[0]) ?? 'User';
}

/** An admin flag counts as boolean true or the string "true" (docs/screens.md, "Rules the screens keep"). */
export function isAdminFlag(value: unknown): boolean {
  return value === true || value === 'true';
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function storeIdOf(metadata: AccountMetadata | null | undefined): string | null {
  const value = metadata?.store_id;
  return typeof value === 'string' && uuid.test(value) ? value : null;
}
