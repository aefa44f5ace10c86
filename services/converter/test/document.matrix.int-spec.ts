import { describeFamilyMatrix } from './family-matrix';

describeFamilyMatrix('document');
