/**
 * The device database cannot open because another window of the app still holds an
 * older version of it open (an old tab that has not reloaded since an update). Until
 * that window closes nothing can be read or saved, so say so at the top of the page, in
 * plain DOM: the screens themselves wait for the database.
 */
import type { AppDatabase } from '../data/app-database.ts';

export const databaseBlockedMessage =
  'This app is open in another tab or window with an older version of its data. Close the other tabs or windows of the app (or reload them) to continue; nothing typed there is lost.';

export function watchDatabaseBlocked(db: AppDatabase): void {
  let banner: HTMLElement | null = null;
  db.on('blocked', () => {
    if (banner) return;
    banner = document.createElement('p');
    banner.className = 'notice storage-trouble';
    banner.setAttribute('role', 'alert');
    banner.textContent = databaseBlockedMessage;
    document.body.prepend(banner);
  });
  db.on('ready', () => {
    banner?.remove();
    banner = null;
  });
}
