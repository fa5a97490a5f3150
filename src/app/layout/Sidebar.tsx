import type { RefObject } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { greeting, personName } from '../../domain/people.ts';
import { useAccount } from '../../features/session/session-context.tsx';
import { useSelectedMonth } from '../../features/session/use-month.ts';
import { MonthNavigator } from './MonthNavigator.tsx';
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

type SidebarProps = {
  /** Unfolded, where it folds behind the top bar's Menu button (narrow screens). */
  open: boolean;
  /** A link was chosen: the folded menu closes. */
  onChoose: () => void;
  panelRef: RefObject<HTMLElement | null>;
  onLogout: () => void;
};

/** Greeting, month, navigation, theme and logout. Below 1024 px it folds behind the top bar's Menu button. */
export function Sidebar({ open, onChoose, panelRef, onLogout }: SidebarProps) {
  const account = useAccount();
  const { month } = useSelectedMonth();
  const [theme, toggleTheme] = useTheme();
  const withMonth = (pathname: string, extra = '') => ({ pathname, search: `?month=${month}${extra}` });

  return (
    <nav id="sidebar" ref={panelRef} tabIndex={-1} className={`sidebar${open ? ' open' : ''}`} aria-label="Main">
      <p className="greeting">
        {greeting(new Date().getHours())}, {personName(account.profile, account.email)}
      </p>
      <MonthNavigator />
      <ul onClick={onChoose}>
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
  );
}
