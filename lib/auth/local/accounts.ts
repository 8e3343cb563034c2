/**
 * Accounts of the local identity providers (local mode): a few seeded people per
 * provider, plus anyone typed into the chooser (kept in KV so they come back). A seeded
 * provider_b account has no public email, so sign-in exercises the emails fallback.
 *
 * @module
 */
import { LOCAL_MODERATOR_EMAIL, type ProviderId } from "../../config.ts";
import { sha256Hex } from "../../ids.ts";
import { commit } from "../../kv/atomic.ts";
import { keys } from "../../kv/keys.ts";
import { LOCAL_OAUTH_BASE } from "../providers.ts";
import { LOCAL_NAME_MAX } from "../../input_limits.ts";

/** One local account. */
export interface LocalAccount {
  provider: ProviderId;
  /** provider_a: userId; provider_b: numeric id as text; provider_c: sub. */
  accountId: string;
  name: string;
  /** provider_b's `login`. */
  login: string;
  /** The profile's email; null on provider_b means "private" (emails endpoint has it). */
  email: string | null;
  bio: string;
  createdAt: number;
}

const seed = (
  provider: ProviderId,
  accountId: string,
  name: string,
  login: string,
  email: string | null,
  bio: string,
): LocalAccount => ({ provider, accountId, name, login, email, bio, createdAt: 0 });

/** The accounts every local provider starts with. */
export const SEEDED_ACCOUNTS: Record<ProviderId, LocalAccount[]> = {
  provider_a: [
    seed("provider_a", "a-1001", "Ada Lovelace", "ada", "ada@local.test", "Writes programs."),
    seed("provider_a", "a-1002", "Alan Kay", "alan", "alan@local.test", ""),
  ],
  provider_b: [
    seed("provider_b", "2001", "Linus Local", "linus-local", null, "Email kept private."),
    seed("provider_b", "2002", "Grace Hopper", "grace-local", "grace@local.test", ""),
  ],
  provider_c: [
    seed("provider_c", "c-3001", "Katherine Johnson", "katherine", "kj@local.test", ""),
    seed("provider_c", "c-3002", "Edsger Dijkstra", "edsger", "ed@local.test", ""),
    // A verified email listed as a moderator in local mode (config.ts).
    seed(
      "provider_c",
      "c-3099",
      "Morgan Moderator",
      "moderator",
      LOCAL_MODERATOR_EMAIL,
      "Keeps Parley tidy (local mode's moderator).",
    ),
  ],
};

/** The address a provider_b account's emails endpoint lists as primary and verified. */
export function primaryEmail(account: LocalAccount): string {
  return account.email ?? `${account.login}@local.test`;
}

/**
 * The avatar URL of a local account: an SVG with initials served by the app itself, so
 * local mode never reaches the internet.
 */
export function localAvatarUrl(appOrigin: string, account: LocalAccount): string {
  const initials = account.name.split(/\s+/).map((w) => w[0] ?? "").join("").slice(0, 2);
  const q = new URLSearchParams({ initials });
  return `${appOrigin}${LOCAL_OAUTH_BASE}/avatar/${encodeURIComponent(account.accountId)}?${q}`;
}

/**
 * Every account of a local provider: the seeded ones, then the typed ones by name.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const accounts = await listLocalAccounts(kv, "provider_b");
 * ```
 */
export async function listLocalAccounts(
  kv: Deno.Kv,
  provider: ProviderId,
): Promise<LocalAccount[]> {
  const typed: LocalAccount[] = [];
  for await (const e of kv.list<LocalAccount>({ prefix: keys.localAccountsPrefix(provider) })) {
    typed.push(e.value);
  }
  typed.sort((a, b) => a.name.localeCompare(b.name));
  return [...SEEDED_ACCOUNTS[provider], ...typed];
}

/** One account by id, or null. */
export async function getLocalAccount(
  kv: Deno.Kv,
  provider: ProviderId,
  accountId: string,
): Promise<LocalAccount | null> {
  const seeded = SEEDED_ACCOUNTS[provider].find((a) => a.accountId === accountId);
  if (seeded) return seeded;
  return (await kv.get<LocalAccount>(keys.localAccount(provider, accountId))).value;
}

/**
 * The account for a typed name: the same name always gives the same account (its id is
 * derived from the name), created on first use.
 *
 * @example
 * ```ts
 * declare const kv: Deno.Kv;
 * const account = await localAccountForName(kv, "provider_c", "Barbara Liskov", Date.now());
 * ```
 */
export async function localAccountForName(
  kv: Deno.Kv,
  provider: ProviderId,
  rawName: string,
  now: number,
): Promise<LocalAccount> {
  const name = rawName.trim().replace(/\s+/g, " ").slice(0, LOCAL_NAME_MAX);
  const existing = (await listLocalAccounts(kv, provider)).find((a) =>
    a.name.toLowerCase() === name.toLowerCase()
  );
  if (existing) return existing;
  const digest = await sha256Hex(`${provider}:${name.toLowerCase()}`);
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "user";
  const accountId = provider === "provider_a"
    ? `a-${digest.slice(0, 10)}`
    : provider === "provider_b"
    ? String(100000 + parseInt(digest.slice(0, 8), 16) % 900_000_000)
    : `c-${digest.slice(0, 16)}`;
  const account: LocalAccount = {
    provider,
    accountId,
    name,
    login: `${slug.slice(0, 30)}-${digest.slice(0, 4)}`,
    // Typed provider_b accounts keep their email private, like the seeded one.
    email: provider === "provider_b" ? null : `${slug.slice(0, 30)}@local.test`,
    bio: "",
    createdAt: now,
  };
  const key = keys.localAccount(provider, accountId);
  await commit(kv, (op) => op.check({ key, versionstamp: null }).set(key, account));
  return (await getLocalAccount(kv, provider, accountId)) ?? account;
}
