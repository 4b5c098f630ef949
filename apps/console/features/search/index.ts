export { SearchPage } from './components/search-page';
export { messageHref, searchHref, searchQuery } from './search-links';
