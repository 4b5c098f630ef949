import type { PagerLinks } from '../pager';

/**
 * The pager under every keyset-paged list: "First page" from a later page, and the next (older)
 * page when there is one. `label` names the list for assistive technology ("Pages of sessions").
 */
export function PagerNav({
  label,
  links,
  nextText,
  firstText = 'First page',
}: {
  label: string;
  links: PagerLinks;
  nextText: string;
  firstText?: string;
}) {
  return (
    <nav aria-label={label} className="pager">
      {links.first !== undefined && <a href={links.first}>{firstText}</a>}
      {links.next !== undefined && (
        <a href={links.next} rel="next">
          {nextText}
        </a>
      )}
    </nav>
  );
}
