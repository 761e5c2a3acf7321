export {
  discoverFleetFiles,
  fleetFileCandidates,
  type DiscoverOptions,
  type FleetFileCandidate,
  type FleetHost,
} from './discover.js';
export { inputVariable } from './placeholders.js';
export { readFleetFiles, type FleetFiles, type ReadFile, type ReadFleetOptions } from './read.js';
