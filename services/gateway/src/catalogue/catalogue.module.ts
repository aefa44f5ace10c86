import { Module } from '@nestjs/common';
import { CatalogueClient } from './catalogue.client';
import { CatalogueController } from './catalogue.controller';
import { FormatFamiliesController } from './format-families.controller';

/** The catalogue routes: format and option lists, from the catalogue service. */
@Module({
  controllers: [CatalogueController, FormatFamiliesController],
  providers: [CatalogueClient],
})
export class CatalogueModule {}
