import { describeFamilyMatrix } from './family-matrix';

describeFamilyMatrix('ebook');
