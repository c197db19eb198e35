import { splitLinks } from "#app/features/chat/format.ts";

/**
 * A message as plain text: React escapes every character, URLs become links that open in a new
 * tab without handing the page to the target (noopener noreferrer) or vouching for it (nofollow).
 */
export function MessageBody({ body }: { body: string }) {
  return (
    <p className="whitespace-pre-wrap break-words">
      {splitLinks(body).map((segment, i) =>
        segment.kind === "link" ? (
          <a key={i} href={segment.href} target="_blank" rel="noopener noreferrer nofollow" className="underline break-all">
            {segment.text}
          </a>
        ) : (
          <span key={i}>{segment.text}</span>
        ),
      )}
    </p>
  );
}
