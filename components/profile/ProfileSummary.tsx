import type { Profile } from "@/lib/profile/profiles.ts";

/**
 * The top of /profile: the signed-in user's avatar, display name and bio.
 *
 * @example
 * ```tsx
 * <ProfileSummary profile={profile} />
 * ```
 */
export function ProfileSummary({ profile }: { profile: Profile }) {
  return (
    <section class="card profile-summary" data-testid="profile-summary">
      {profile.avatarUrl
        ? <img class="avatar avatar-lg" src={profile.avatarUrl} alt="" />
        : <span class="avatar avatar-lg avatar-empty" aria-hidden="true" />}
      <div>
        <h1>{profile.displayName}</h1>
        {profile.bio && <p>{profile.bio}</p>}
      </div>
    </section>
  );
}
