export { KeysPage } from './components/keys-page';
export { handleCreateKey, handleRevokeKey } from './server/key-handlers';
