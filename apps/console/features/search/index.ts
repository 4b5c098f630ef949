export { SearchPage } from './components/search-page';
export { messageHref, searchHref } from './search-links';
