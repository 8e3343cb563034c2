import FavoriteButton from "@/islands/FavoriteButton.tsx";
import VoteButtons from "@/islands/VoteButtons.tsx";
import type { TargetType } from "@/lib/community/targets.ts";
import type { VoteType } from "@/lib/community/votes.ts";

/**
 * The vote and favorite buttons of one question or message, with the viewer's state.
 *
 * @example
 * ```tsx
 * <VoteAndFavorite targetType="question" targetId={q.id} upvotes={1} downvotes={0}
 *   vote={null} favorited={false} signInHref="/signin" label="this question" />
 * ```
 */
export function VoteAndFavorite(
  props: {
    targetType: TargetType;
    targetId: string;
    upvotes: number;
    downvotes: number;
    vote: VoteType | null;
    favorited: boolean;
    /** Where a signed-out visitor goes to sign in; null when signed in. */
    signInHref: string | null;
    label: string;
    /** The viewer's own post: votes show but cannot be cast (docs/interface.md#votes). */
    own?: boolean;
  },
) {
  const { targetType, targetId, signInHref, label } = props;
  return (
    <>
      <VoteButtons
        targetType={targetType}
        targetId={targetId}
        upvotes={props.upvotes}
        downvotes={props.downvotes}
        vote={props.vote}
        signInHref={signInHref}
        label={label}
        own={props.own}
      />
      <FavoriteButton
        targetType={targetType}
        targetId={targetId}
        favorited={props.favorited}
        signInHref={signInHref}
        label={label}
      />
    </>
  );
}
