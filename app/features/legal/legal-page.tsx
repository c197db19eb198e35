import type { LegalDocument } from "./documents";

export function LegalPage({ document }: { document: LegalDocument }) {
  return (
    <article className="mx-auto max-w-3xl space-y-6 leading-relaxed">
      <header>
        <h1 className="text-2xl font-bold">{document.title}</h1>
        <p className="mt-1 text-sm text-slate-600">
          {document.updatedLabel}: <time dateTime={document.updated}>{document.updated}</time>
        </p>
      </header>
      <p>{document.intro}</p>
      {document.sections.map((section) => (
        <section key={section.heading} className="space-y-2">
          <h2 className="text-lg font-bold">{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.items ? (
            <ul className="list-disc space-y-1 pl-6">
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </article>
  );
}
