//! Depth lists (DEPTH, PLACE, default-depth, CHANCE/WEIGHT ranges) as crawl reads them.
