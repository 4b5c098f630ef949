import { can } from '@agentdesk/authz';
import type { SignedIn } from '../../auth';
import { ApiProblem } from '../../shell';
import { listSuites } from '../server/read-suites';
import { SaveLabCaseForm, type SuiteChoice } from './save-lab-case-form';

/**
 * On a lab run's page, for those who may edit suites: the run saved as a case of a suite (the
 * suites to choose from are the newest page of them).
 */
export async function SaveLabRunAsCase({
  signedIn,
  labRunId,
  runName,
}: {
  signedIn: SignedIn;
  labRunId: string;
  runName: string;
}) {
  if (!can(signedIn.principal, 'suites:write') || !can(signedIn.principal, 'suites:read')) return null;
  let suites: SuiteChoice[];
  try {
    const page = await listSuites(signedIn.credential, undefined);
    suites = page.items.map((suite) => ({
      id: suite.id,
      name: suite.name,
      latestVersion: suite.latestVersion,
    }));
  } catch (error) {
    return <ApiProblem error={error} />;
  }
  if (suites.length === 0)
    return (
      <p className="notice">
        To keep this run as a test case, <a href="/suites">create a suite</a> first.
      </p>
    );
  return <SaveLabCaseForm labRunId={labRunId} runName={runName} suites={suites} />;
}
