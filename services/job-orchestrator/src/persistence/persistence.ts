import { MongooseModule } from '@nestjs/mongoose';
import { JobDocument, JobSchema } from './job.schema';
import { TaskDocument, TaskSchema } from './task.schema';

export const jobModels = MongooseModule.forFeature([
  { name: JobDocument.name, schema: JobSchema },
  { name: TaskDocument.name, schema: TaskSchema },
]);
