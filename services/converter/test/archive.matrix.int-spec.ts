import { describeFamilyMatrix } from './family-matrix';

describeFamilyMatrix('archive');
