/**
 * Product analytics rules (docs/product.md §1.6, §1.7), behind a sink interface so no third-party script is
 * needed: page views on every route change, session recording stopped on private paths, capture
 * off on localhost and for internal staff, identity = id, else e-mail, else 'anonymous'. Sink
 * errors are swallowed: analytics never breaks a page.
 */
import { isLocalHost } from '../api/url.js';

export interface AnalyticsSink {
  capture(event: string, properties: Record<string, unknown>): void;
  identify(distinctId: string, properties: Record<string, unknown>): void;
  reset(): void;
  optIn(): void;
  optOut(): void;
  startRecording(): void;
  stopRecording(): void;
}

export interface AnalyticsConfig {
  hostname: string;
  /** Staff addresses never tracked (docs/product.md §1.6 names three; configured, not hard-coded). */
  excludedEmails?: readonly string[];
  /** Internal e-mail domain suffixes (the spec's list is empty). */
  internalDomains?: readonly string[];
}

export interface AnalyticsIdentityInput {
  email?: unknown;
  mail?: unknown;
  id?: unknown;
  user_id?: unknown;
  username?: unknown;
  role?: unknown;
  plan?: unknown;
  credits?: unknown;
}

export interface AnalyticsIdentity {
  distinctId: string;
  email: string | null;
  username: string | null;
  role: string;
  plan: string;
  credits: number | null;
}

const RECORDING_OFF_PREFIXES = ['/login', '/register', '/profile', '/admin'];

export function recordingAllowedOn(pathname: string): boolean {
  return !RECORDING_OFF_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

function text(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

export function analyticsIdentity(user: AnalyticsIdentityInput): AnalyticsIdentity {
  const email = text(user.email) ?? text(user.mail);
  const id = text(user.id) ?? text(user.user_id) ?? text(user.username);
  const credits = typeof user.credits === 'number' && Number.isFinite(user.credits) ? user.credits : null;
  return {
    distinctId: id ?? email ?? 'anonymous',
    email,
    username: text(user.username),
    role: text(user.role) ?? 'user',
    plan: text(user.plan) ?? 'free',
    credits,
  };
}

export function isInternalEmail(email: string | null, config: AnalyticsConfig): boolean {
  if (!email) return false;
  const lower = email.toLowerCase();
  if ((config.excludedEmails ?? []).some((e) => e.toLowerCase() === lower)) return true;
  return (config.internalDomains ?? []).some((suffix) => suffix !== '' && lower.endsWith(suffix.toLowerCase()));
}

export class Analytics {
  private optedOut: boolean;

  constructor(
    private readonly sink: AnalyticsSink,
    private readonly config: AnalyticsConfig,
  ) {
    this.optedOut = isLocalHost(config.hostname);
    this.safe(() => (this.optedOut ? sink.optOut() : sink.optIn()));
  }

  get enabled(): boolean {
    return !this.optedOut;
  }

  pageView(pathname: string, search = ''): void {
    if (this.optedOut) return;
    this.safe(() => {
      this.sink.capture('$pageview', { path: pathname, search });
      if (recordingAllowedOn(pathname)) this.sink.startRecording();
      else this.sink.stopRecording();
    });
  }

  capture(event: string, properties: Record<string, unknown> = {}): void {
    if (this.optedOut) return;
    this.safe(() => this.sink.capture(event, properties));
  }

  identify(user: AnalyticsIdentityInput): void {
    const identity = analyticsIdentity(user);
    if (isLocalHost(this.config.hostname) || isInternalEmail(identity.email, this.config)) {
      this.optedOut = true;
      this.safe(() => {
        this.sink.stopRecording();
        this.sink.optOut();
      });
      return;
    }
    this.optedOut = false;
    this.safe(() => {
      this.sink.optIn();
      this.sink.identify(identity.distinctId, {
        email: identity.email,
        username: identity.username,
        role: identity.role,
        plan: identity.plan,
        credits: identity.credits,
      });
    });
  }

  reset(): void {
    this.safe(() => this.sink.reset());
  }

  private safe(action: () => void): void {
    try {
      action();
    } catch {
      // Analytics errors are swallowed (docs/product.md §1.7).
    }
  }
}

/** Records events in memory and, when asked, on the console (debugging, tests). */
export class MemorySink implements AnalyticsSink {
  readonly events: { type: string; name?: string; properties?: Record<string, unknown> }[] = [];
  recording = false;
  optedOut = false;

  constructor(private readonly log: ((...args: unknown[]) => void) | null = null) {}

  capture(event: string, properties: Record<string, unknown>): void {
    this.push({ type: 'capture', name: event, properties });
  }
  identify(distinctId: string, properties: Record<string, unknown>): void {
    this.push({ type: 'identify', name: distinctId, properties });
  }
  reset(): void {
    this.push({ type: 'reset' });
  }
  optIn(): void {
    this.optedOut = false;
    this.push({ type: 'optIn' });
  }
  optOut(): void {
    this.optedOut = true;
    this.push({ type: 'optOut' });
  }
  startRecording(): void {
    this.recording = true;
  }
  stopRecording(): void {
    this.recording = false;
  }

  private push(entry: { type: string; name?: string; properties?: Record<string, unknown> }): void {
    this.events.push(entry);
    if (this.events.length > 200) this.events.shift();
    this.log?.('[analytics]', entry.type, entry.name ?? '', entry.properties ?? '');
  }
}
