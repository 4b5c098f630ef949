export { PeoplePage } from './components/people-page';
export { PersonLink } from './components/person-link';
export { PersonPage } from './components/person-page';
export { PrincipalLabel } from './components/principal-label';
export { PersonSuggestions } from './components/person-suggestions';
export { handlePeopleSuggestions } from './server/suggest-handler';
export { parsePeopleFilters, toPeopleQuery } from './people-filters';
