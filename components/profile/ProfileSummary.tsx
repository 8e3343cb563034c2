import { Avatar } from "@/components/Avatar.tsx";
import { Bio } from "@/components/Markdown.tsx";
import type { Profile } from "@/lib/profile/profiles.ts";

/**
 * The top of /profile: the signed-in user's avatar (initials when there is none or it
 * fails to load), display name and bio (inline Markdown).
 *
 * @example
 * ```tsx
 * <ProfileSummary profile={profile} />
 * ```
 */
export function ProfileSummary({ profile }: { profile: Profile }) {
  return (
    <section class="card profile-summary" data-testid="profile-summary" id="overview">
      <Avatar
        name={profile.displayName}
        src={profile.avatarUrl}
        size="lg"
        testId="profile-avatar"
      />
      <div>
        <h1 dir="auto">{profile.displayName}</h1>
        {profile.bio && <Bio text={profile.bio} />}
      </div>
    </section>
  );
}
