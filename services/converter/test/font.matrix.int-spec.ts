import { describeFamilyMatrix } from './family-matrix';

describeFamilyMatrix('font');
