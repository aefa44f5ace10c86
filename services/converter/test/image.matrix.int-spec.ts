import { describeFamilyMatrix } from './family-matrix';

describeFamilyMatrix('image');
