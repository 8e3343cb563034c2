import FlagButton from "@/islands/FlagButton.tsx";

/** The moderation tools on a post: the Flag action for signed-in people but its author. */
export function FlagAction(
  { viewerId, authorId, targetType, targetId, label }: {
    viewerId: string | null;
    authorId: string;
    targetType: "question" | "message";
    targetId: string;
    label: string;
  },
) {
  if (!viewerId || viewerId === authorId || !authorId) return null;
  return <FlagButton targetType={targetType} targetId={targetId} label={label} />;
}
