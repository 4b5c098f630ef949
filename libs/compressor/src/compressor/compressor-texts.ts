import { formatCount, type NoticeLanguage } from '../truncation/truncation-notice';

/** A stored result named in a summary or removal note. */
export interface StoredReference {
  toolName: string;
  id: string;
}

/** Most ids a note lists; older ones are counted, not named. */
const MAX_LISTED_REFERENCES = 20;

/** First line of the message that replaces summarized entries. */
export function summaryHeading(language: NoticeLanguage, entries: number): string {
  const count = formatCount(entries, language);
  return language === 'fr'
    ? `[Résumé de ${count} messages antérieurs d’appels d’outils, condensés pour tenir dans le contexte]`
    : `[Summary of ${count} earlier tool-call messages, condensed to fit the context]`;
}

/** The line naming where the originals of removed results can be read; empty without references. */
export function storedReferencesLine(
  language: NoticeLanguage,
  references: readonly StoredReference[],
): string {
  if (references.length === 0) return '';
  // The newest references matter most: list from the end.
  const listed = references.slice(-MAX_LISTED_REFERENCES);
  const names = listed.map((reference) => `${reference.toolName} → "${reference.id}"`).join(', ');
  const unlisted = references.length - listed.length;
  const more =
    unlisted === 0
      ? ''
      : language === 'fr'
        ? ` (et ${formatCount(unlisted, language)} plus anciens)`
        : ` (and ${formatCount(unlisted, language)} older ones)`;
  return language === 'fr'
    ? `Résultats originaux lisibles avec read_tool_result : ${names}${more}.`
    : `Original results readable with read_tool_result: ${names}${more}.`;
}

/** The note that replaces older entries dropped by the deterministic fallback. */
export function removedEntriesNote(
  language: NoticeLanguage,
  entries: number,
  referencesLine: string,
): string {
  const count = formatCount(entries, language);
  const main =
    language === 'fr'
      ? `[${count} messages antérieurs d’appels d’outils ont été retirés pour tenir dans le contexte.]`
      : `[${count} earlier tool-call messages were removed to fit the context.]`;
  return referencesLine === '' ? main : `${main}\n${referencesLine}`;
}
