import ProfileEditor from "@/islands/ProfileEditor.tsx";
import type { Profile } from "@/lib/profile/profiles.ts";

/** The "Edit profile" section of /profile. */
export function EditProfile({ profile }: { profile: Profile }) {
  return (
    <section class="card" aria-labelledby="edit-profile-h" id="settings">
      <h2 id="edit-profile-h">Edit profile</h2>
      <ProfileEditor
        displayName={profile.displayName}
        avatarUrl={profile.avatarUrl}
        bio={profile.bio}
        coverUrl={profile.coverUrl}
      />
    </section>
  );
}
