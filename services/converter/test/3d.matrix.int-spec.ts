import { describeFamilyMatrix } from './family-matrix';

describeFamilyMatrix('3d');
