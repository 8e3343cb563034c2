import { useTypedBefore } from "@/lib/client/typed_before.ts";
import { MarkdownEditor } from "@/components/MarkdownEditor.tsx";

interface Props {
  id: string;
  name: string;
  value: string;
  maxLength: number;
  describedBy?: string;
  invalid?: boolean;
  autoFocus?: boolean;
  rows?: number;
}

/**
 * A Markdown field with Write/Preview tabs inside a plain server form (ask, edit question).
 * Without JavaScript it is the plain textarea; Ctrl/Cmd+Enter submits its form.
 */
export default function MarkdownField(props: Props) {
  // What was typed before this script ran is kept, not wiped by hydration.
  const [value, setValue] = useTypedBefore(props.id, props.value);
  return (
    <MarkdownEditor
      {...props}
      value={value}
      onInput={setValue}
      onKeyDown={(e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          (e.target as HTMLTextAreaElement).form?.requestSubmit();
        }
      }}
    />
  );
}
