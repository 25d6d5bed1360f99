import type { LabelResponse } from './dto/label.dto.js';
import type { LabelEntity } from './entities/label.entity.js';

export const toLabelResponse = (row: LabelEntity): LabelResponse => ({
  id: row.id,
  name: row.name,
  color: row.color,
  created_at: new Date(row.createdAt).toISOString(),
});
