import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Footer } from './Footer.js';
import { HexBackground } from './HexBackground.js';
import { LoadingBar } from './LoadingBar.js';
import { PageErrorBoundary } from './PageErrorBoundary.js';
import { RouteFallback } from './RouteFallback.js';
import { TopBar } from './TopBar.js';
import { Toaster } from '../components/Toaster.js';
import { LinkSignInNotice } from './AddressKeyPrompts.js';

/** The main layout (docs/product.md §1.2): bar, routed page (max width 7xl, centred, padded), footer. */
export function Layout() {
  return (
    <div className="app-shell">
      <HexBackground />
      <LoadingBar />
      <TopBar />
      <main className="main">
        <LinkSignInNotice />
        <PageErrorBoundary>
          <Suspense fallback={<RouteFallback />}>
            <Outlet />
          </Suspense>
        </PageErrorBoundary>
      </main>
      <Footer />
      <Toaster />
    </div>
  );
}

/** Pages outside the layout (login, reset, legal, support) still get the bar and background. */
export function BareLayout() {
  return (
    <div className="app-shell bare">
      <HexBackground />
      <LoadingBar />
      <LinkSignInNotice />
      <PageErrorBoundary>
        <Suspense fallback={<RouteFallback />}>
          <Outlet />
        </Suspense>
      </PageErrorBoundary>
      <Toaster />
    </div>
  );
}
