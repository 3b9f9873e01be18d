import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { Hexagon, Menu, X } from 'lucide-react';
import { useSession } from '../session/react.js';
import { storage } from '../runtime.js';
import { avatarLook, storedAvatarColor } from './avatar.js';
import { creditsBadgeText } from './credits.js';

export const NAV_LINKS = [
  { to: '/home', label: 'Accueil' },
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/comparateur', label: 'Comparateur' },
  { to: '/backtest', label: 'Backtest' },
  { to: '/csv-shop', label: 'CSV Shop' },
  { to: '/pricing', label: 'Tarifs' },
  { to: '/a-savoir', label: 'À savoir' },
] as const;

/** Shell breakpoint (docs/product.md §1.9) and scroll threshold of the bar's 'scrolled' style. */
export const SHELL_BREAKPOINT_PX = 1024;
export const SCROLLED_AFTER_PX = 8;

function useScrolled(): boolean {
  const [scrolled, setScrolled] = useState(() => typeof window !== 'undefined' && window.scrollY > SCROLLED_AFTER_PX);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > SCROLLED_AFTER_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return scrolled;
}

function useAvatarColor(key: string | null): string | null {
  const [color, setColor] = useState(() => storedAvatarColor(storage, key));
  useEffect(() => {
    setColor(storedAvatarColor(storage, key));
    const onChange = () => setColor(storedAvatarColor(storage, key));
    // The profile page announces a new colour in this tab; the storage event covers other tabs.
    window.addEventListener('bt:avatar-color', onChange);
    window.addEventListener('storage', onChange);
    return () => {
      window.removeEventListener('bt:avatar-color', onChange);
      window.removeEventListener('storage', onChange);
    };
  }, [key]);
  return color;
}

export function TopBar() {
  const state = useSession();
  const location = useLocation();
  const scrolled = useScrolled();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement | null>(null);
  const color = useAvatarColor(state.key);

  // The dropdown closes on navigation.
  useEffect(() => setMenuOpen(false), [location.pathname, location.search]);

  // Escape closes the open dropdown and gives focus back to its button (as a dialog does), unless a
  // dialog is open above it: that dialog answers Escape first (components/Modal.tsx).
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || document.querySelector('[role="dialog"]')) return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const look = avatarLook(state.user, color);
  const links = state.isAdmin ? [...NAV_LINKS, { to: '/admin', label: 'Admin' }] : NAV_LINKS;

  return (
    <header className={`topbar${scrolled ? ' scrolled' : ''}`}>
      <div className="topbar-inner">
        <Link to="/" className="logo" aria-label="bt — accueil">
          <Hexagon className="logo-mark" size={22} strokeWidth={2.5} aria-hidden="true" />
          <span className="logo-text">bt</span>
        </Link>
        {/* Closing on the click as well: a lazy page keeps the location update pending while it loads. */}
        <nav className={`nav-links${menuOpen ? ' open' : ''}`} id="main-nav" aria-label="Navigation principale" onClick={(e) => (e.target as HTMLElement).closest('a') && setMenuOpen(false)}>
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} className={({ isActive }) => `nav-link${isActive ? ' active' : ''}`}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="topbar-right">
          <Link to="/pricing" className="credits-badge" title="Acheter des crédits" data-testid="credits-badge">
            <strong>{creditsBadgeText(state.user)}</strong> crédits
          </Link>
          {state.key ? (
            <Link
              to="/profile"
              className="avatar"
              style={{ background: look.background, color: look.color }}
              aria-label="Mon profil"
              data-testid="avatar"
            >
              {look.initials}
            </Link>
          ) : (
            <Link to={`/login?next=${encodeURIComponent(location.pathname + location.search + location.hash)}`} className="btn btn-small">
              Connexion
            </Link>
          )}
          <button
            type="button"
            ref={menuButton}
            className="hamburger"
            aria-label="Menu"
            aria-controls="main-nav"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X size={22} aria-hidden="true" /> : <Menu size={22} aria-hidden="true" />}
          </button>
        </div>
      </div>
    </header>
  );
}
