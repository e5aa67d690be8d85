//! TODO(helper): placeholder media.
