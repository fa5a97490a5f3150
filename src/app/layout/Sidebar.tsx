import { useState } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { monthLabel } from '../../domain/month.ts';
import { greeting, personName } from '../../domain/people.ts';
import { useAccount } from '../../features/session/session-context.tsx';
import { useSelectedMonth } from '../../features/session/use-month.ts';
import { useTheme } from './use-theme.ts';

const screens = [
  ['/daily', 'Daily'],
  ['/weekly', 'Weekly'],
  ['/monthly', 'Monthly'],
  ['/yearly', 'Yearly'],
  ['/service-overview', 'Service Overview'],
  ['/front-end-team', 'Front End Team'],
] as const;

const quickJumps = [
  ['daily', 'Daily'],
  ['weekly', 'Weekly'],
  ['monthly-performance', 'Monthly'],
  ['yearly-trend', 'Yearly'],
] as const;

/** Month, greeting, navigation, theme and logout. On tablets it folds behind a menu button. */
export function Sidebar({ onLogout }: { onLogout: () => void }) {
  const account = useAccount();
  const { month, move } = useSelectedMonth();
  const [theme, toggleTheme] = useTheme();
  const [open, setOpen] = useState(false);
  const withMonth = (pathname: string, extra = '') => ({ pathname, search: `?month=${month}${extra}` });
  const close = () => setOpen(false);

  return (
    <>
      <button type="button" className="menu-button" aria-expanded={open} aria-controls="sidebar" onClick={() => setOpen(!open)}>
        Menu
      </button>
      <nav id="sidebar" className={`sidebar${open ? ' open' : ''}`} aria-label="Main">
        <p className="greeting">
          {greeting(new Date().getHours())}, {personName(account.profile, account.email)}
        </p>
        <div className="month-navigator" role="group" aria-label="Month">
          <button type="button" onClick={() => move(-1)}>
            Prev
          </button>
          <span aria-live="polite">{monthLabel(month)}</span>
          <button type="button" onClick={() => move(1)}>
            Next
          </button>
        </div>
        <ul onClick={close}>
          <li>
            <NavLink to={withMonth('/today')}>Today</NavLink>
          </li>
          <li>
            <NavLink to={withMonth('/', '&view=all')} end>
              One Page
            </NavLink>
            <ul className="quick-jumps">
              {quickJumps.map(([section, label]) => (
                <li key={section}>
                  <Link to={withMonth('/', `&section=${section}`)} aria-label={`${label} section of One Page`}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </li>
          {screens.map(([path, label]) => (
            <li key={path}>
              <NavLink to={withMonth(path)}>{label}</NavLink>
            </li>
          ))}
          <li>
            <NavLink to={withMonth('/settings')}>System</NavLink>
          </li>
          {account.isAdmin ? (
            <>
              <li>
                <NavLink to={withMonth('/compare')}>Store Comparison</NavLink>
              </li>
              <li>
                <NavLink to={withMonth('/admin')}>Admin</NavLink>
              </li>
            </>
          ) : null}
        </ul>
        <button type="button" onClick={toggleTheme} aria-pressed={theme === 'light'}>
          {theme === 'dark' ? 'Light mode' : 'Dark mode'}
        </button>
        <button type="button" onClick={onLogout}>
          Logout
        </button>
      </nav>
    </>
  );
}
