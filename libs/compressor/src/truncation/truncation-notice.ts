/** Language of the texts the compressor writes for the model. */
export type NoticeLanguage = 'en' | 'fr';

/** The first words of every truncation notice, by language; {@link hasTruncationNotice} looks for them. */
export const TRUNCATION_NOTICE_HEADINGS: Readonly<Record<NoticeLanguage, string>> = {
  en: '⚠️ TRUNCATED TOOL RESULT',
  fr: '⚠️ RÉSULTAT D’OUTIL TRONQUÉ',
};

/** Ends the notice, so the data that follows is visibly separate from it. */
const NOTICE_SEPARATOR = '\n---\n';

/** Formats an integer with thousands separators, identically on every machine (no Intl, no locale data). */
export function formatCount(value: number, language: NoticeLanguage): string {
  const digits = String(Math.trunc(Math.abs(value)));
  const separator = language === 'fr' ? '\u202f' : ',';
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  return value < 0 ? `-${grouped}` : grouped;
}

function readHint(language: NoticeLanguage, storedResultId: string | undefined): string {
  if (storedResultId === undefined) return '';
  return language === 'fr'
    ? ` Le résultat original complet est conservé sous l’identifiant "${storedResultId}" : appelez read_tool_result avec cet identifiant, un offset et une limite pour le lire page par page.`
    : ` The complete original result is stored under id "${storedResultId}": call read_tool_result with this id, an offset and a limit to read it page by page.`;
}

/**
 * The notice put in front of a truncated tool result. It tells the model that the data is
 * INCOMPLETE, that partial values and totals must not be trusted, and to re-query narrowly;
 * with a stored id, how to page through the original.
 */
export function truncationNotice(language: NoticeLanguage, storedResultId?: string): string {
  const body =
    language === 'fr'
      ? ' — ce résultat était trop volumineux pour la fenêtre de contexte et a été coupé automatiquement. ' +
        'Les données ci-dessous sont INCOMPLÈTES : ne vous fiez ni aux valeurs partielles, ni aux totaux, ' +
        'comptes ou agrégats calculés à partir d’elles. Pour disposer des données complètes, rappelez l’outil ' +
        'avec des requêtes plus ciblées (filtres précis, LIMIT/pagination, moins de colonnes) et traitez le ' +
        'résultat par morceaux.'
      : ' — this result was too large for the context window and was cut automatically. ' +
        'The data below is INCOMPLETE: do not rely on partial values, nor on totals, counts or aggregates ' +
        'computed from them. If you need the complete data, call the tool again with narrower requests ' +
        '(precise filters, LIMIT/pagination, fewer columns) and work through the result in parts.';
  return TRUNCATION_NOTICE_HEADINGS[language] + body + readHint(language, storedResultId) + NOTICE_SEPARATOR;
}

/**
 * The shortest notice, used alone when the budget cannot hold any of the data: it still says the
 * result is INCOMPLETE (here: entirely omitted) and how to get it.
 */
export function compactTruncationNotice(
  language: NoticeLanguage,
  omittedCharacters: number,
  storedResultId?: string,
): string {
  const count = formatCount(omittedCharacters, language);
  const main =
    language === 'fr'
      ? ` — INCOMPLET : ${count} caractères omis pour tenir dans le contexte. Refaites des appels plus ciblés (filtres, LIMIT/pagination, moins de colonnes).`
      : ` — INCOMPLETE: ${count} characters omitted to fit the context. Re-query with narrower calls (filters, LIMIT/pagination, fewer columns).`;
  const read =
    storedResultId === undefined
      ? ''
      : language === 'fr'
        ? ` Original : read_tool_result id "${storedResultId}".`
        : ` Original: read_tool_result id "${storedResultId}".`;
  return TRUNCATION_NOTICE_HEADINGS[language] + main + read;
}

/** True when a text starts with a truncation notice in any language. */
export function hasTruncationNotice(text: string): boolean {
  return Object.values(TRUNCATION_NOTICE_HEADINGS).some((heading) => text.startsWith(heading));
}

/** What a marker reports about the omitted middle. */
export interface OmissionStats {
  characters: number;
  /** Whole lines omitted (line-oriented cut). */
  lines?: number;
  /**
   * Array items (JSON cut), records (NDJSON lines) or rows (CSV/TSV, header excluded) omitted,
   * and how many there were. `unit` defaults to `items`.
   */
  items?: { omitted: number; total: number; unit?: CountedUnit };
}

/** What a structure-aware cut counts. */
export type CountedUnit = 'items' | 'records' | 'rows';

const UNIT_WORDS: Readonly<Record<CountedUnit, Record<NoticeLanguage, [string, string]>>> = {
  items: { en: ['item omitted', 'items omitted'], fr: ['élément omis', 'éléments omis'] },
  records: { en: ['record omitted', 'records omitted'], fr: ['enregistrement omis', 'enregistrements omis'] },
  rows: { en: ['row omitted', 'rows omitted'], fr: ['ligne de données omise', 'lignes de données omises'] },
};

/**
 * The marker placed between the kept head and tail of a text, stating exactly what was omitted.
 * Bracketed text only: each cut strategy adds the line breaks or JSON quoting that fits its format.
 */
export function omissionMarker(stats: OmissionStats, language: NoticeLanguage): string {
  const french = language === 'fr';
  const characters = plural(
    stats.characters,
    language,
    french ? ['caractère', 'caractères'] : ['character', 'characters'],
  );
  if (stats.items !== undefined) {
    const omitted = formatCount(stats.items.omitted, language);
    const total = formatCount(stats.items.total, language);
    const [singular, pluralForm] = UNIT_WORDS[stats.items.unit ?? 'items'][language];
    return french
      ? `[... ${omitted} ${stats.items.omitted > 1 ? pluralForm : singular} sur ${total} (${characters}) ...]`
      : `[... ${omitted} of ${total} ${pluralForm} (${characters}) ...]`;
  }
  if (stats.lines !== undefined) {
    const lines = plural(
      stats.lines,
      language,
      french ? ['ligne omise', 'lignes omises'] : ['line', 'lines'],
    );
    return french ? `[... ${lines} (${characters}) ...]` : `[... ${lines} omitted (${characters}) ...]`;
  }
  return french ? `[... ${characters} omis ...]` : `[... ${characters} omitted ...]`;
}

/** "1 line" / "2 lines"; French uses the singular for 0 and 1. */
function plural(count: number, language: NoticeLanguage, [singular, pluralForm]: [string, string]): string {
  const single = language === 'fr' ? count <= 1 : count === 1;
  return `${formatCount(count, language)} ${single ? singular : pluralForm}`;
}
