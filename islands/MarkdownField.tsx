import { useState } from "preact/hooks";
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
  const [value, setValue] = useState(props.value);
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
