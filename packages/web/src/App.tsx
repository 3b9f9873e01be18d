import { lazy, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { analytics } from './runtime.js';
import { RequireAdmin, RequireAuth } from './session/guards.js';
import { useSessionSync } from './session/react.js';
import { AccountSwitchDialog } from './shell/AddressKeyPrompts.js';
import { BareLayout, Layout } from './shell/Layout.js';

// Route-level code splitting: each page is its own chunk, so a visitor downloads only what they see.
const HomePage = lazy(() => import('./pages/home/HomePage.js'));
const BacktestPage = lazy(() => import('./pages/backtest/BacktestPage.js'));
const LoginPage = lazy(() => import('./pages/auth/LoginPage.js'));
const ForgotPasswordPage = lazy(() => import('./pages/auth/ForgotPasswordPage.js'));
const ResetPasswordPage = lazy(() => import('./pages/auth/ResetPasswordPage.js'));
const LegalPage = lazy(() => import('./pages/legal/LegalPage.js'));
const SupportPage = lazy(() => import('./pages/support/SupportPage.js'));
const ASavoirPage = lazy(() => import('./pages/reference/ASavoirPage.js'));
const StrategyDocsPage = lazy(() => import('./pages/reference/StrategyDocsPage.js'));
const PricingPage = lazy(() => import('./pages/pricing/PricingPage.js'));
const CsvShopPage = lazy(() => import('./pages/csv-shop/CsvShopPage.js'));
const SuccessPage = lazy(() => import('./pages/success/SuccessPage.js'));
const DashboardPage = lazy(() => import('./pages/dashboard/DashboardPage.js'));
const ComparateurPage = lazy(() => import('./pages/comparator/ComparateurPage.js'));
const ProfilePage = lazy(() => import('./pages/profile/ProfilePage.js'));
const AdminPage = lazy(() => import('./pages/admin/AdminPage.js'));

/** A page-view event on every route change (docs/product.md §1.2). */
function RouteEffects() {
  const location = useLocation();
  useEffect(() => {
    analytics.pageView(location.pathname, location.search);
  }, [location.pathname, location.search]);
  return null;
}

/** `/auth`, the sign-in page's other name (docs/product.md §3.2): /login with the same query. */
function ToLogin() {
  const { search } = useLocation();
  return <Navigate to={`/login${search}`} replace />;
}

export function App() {
  useSessionSync();
  return (
    <>
      <RouteEffects />
      <AccountSwitchDialog />
      <Routes>
        <Route element={<Layout />}>
          <Route path="/" element={<HomePage />} />
          <Route path="/home" element={<HomePage />} />
          <Route path="/pricing" element={<PricingPage />} />
          <Route path="/csv-shop" element={<CsvShopPage />} />
          <Route path="/backtest" element={<BacktestPage />} />
          <Route path="/a-savoir" element={<ASavoirPage />} />
          <Route path="/a-savoir/strategies" element={<StrategyDocsPage />} />
          <Route path="/success" element={<SuccessPage />} />
          <Route path="/dashboard" element={<RequireAuth><DashboardPage /></RequireAuth>} />
          <Route path="/comparateur" element={<RequireAuth><ComparateurPage /></RequireAuth>} />
          <Route path="/profile" element={<RequireAuth><ProfilePage /></RequireAuth>} />
          <Route path="/admin" element={<RequireAdmin><AdminPage /></RequireAdmin>} />
        </Route>
        <Route element={<BareLayout />}>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/auth" element={<ToLogin />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
          <Route path="/resetpassword/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/resetpassword/reset-password/:token" element={<ResetPasswordPage />} />
          <Route path="/legal/mentions-legales" element={<LegalPage tab="mentions" />} />
          <Route path="/legal/mentions" element={<LegalPage tab="mentions" />} />
          <Route path="/legal/politique-confidentialite" element={<LegalPage tab="confidentialite" />} />
          <Route path="/legal/confidentialite" element={<LegalPage tab="confidentialite" />} />
          <Route path="/legal/cgu" element={<LegalPage tab="cgu" />} />
          <Route path="/support" element={<SupportPage />} />
          <Route path="/support/support" element={<SupportPage />} />
        </Route>
        <Route path="*" element={<Navigate to="/home" replace />} />
      </Routes>
    </>
  );
}
