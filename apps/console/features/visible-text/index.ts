export { characterMarker, visibleText } from './visible-text';
