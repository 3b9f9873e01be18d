/** The current user as GET /api/me describes it (docs/product.md §1.3, docs/product.md §2.3); every field optional. */
export interface UserProfile {
  id?: number | string;
  user_id?: number | string;
  username?: string;
  name?: string;
  full_name?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  mail?: string;
  role?: string;
  is_admin?: boolean | number;
  plan?: string;
  credits?: unknown;
  credit?: unknown;
  credit_balance?: unknown;
  remaining_credits?: unknown;
  creditsLeft?: unknown;
  balance_credits?: unknown;
  has_discount?: boolean;
  email_verified?: boolean;
  /** The sign-up credits still come with the verification (false once granted, docs/api.md). */
  signup_credits_pending?: boolean;
  [field: string]: unknown;
}
