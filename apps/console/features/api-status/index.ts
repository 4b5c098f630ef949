export { API_PROBE_TIMEOUT_MS, pageStatusFor, probeApi, type ApiProbeResult } from './api-probe';
export {
  API_PROBLEM_HEADER,
  API_UNAVAILABLE_PATH,
  apiProblemValue,
  isPageLoad,
  readApiProblem,
  type ApiProblemKind,
  type NavigationRequest,
} from './page-navigation';
export { INTERNAL_PAGE_HEADER, isInternalPageRequest, unavailablePageResponse } from './unavailable-page';
