//! The Lua API crawl 0.28 gives vault files, as the corpus of 0.28.0's vaults calls it
//! (`crawl.*`, `dgn.*`, `you.*`, the map functions, and the helpers of crawl's own Lua
//! files), with what each means for a preview. `api.lua` implements the modelled ones; the
//! others are known names whose call leaves a note naming them.

/// What a preview makes of a function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Modelled: what it does to the vault is done (the meaning, in words).
    Modelled(&'static str),
    /// It acts during play or on the rest of the level: nothing of the vault's picture changes.
    Nothing(&'static str),
    /// Not modelled: the preview ignores it and says so (why, in words).
    Unmodelled(&'static str),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub name: &'static str,
    pub status: Status,
}

impl Entry {
    pub fn modelled(&self) -> bool {
        !matches!(self.status, Status::Unmodelled(_))
    }
}

const fn m(name: &'static str, meaning: &'static str) -> Entry {
    Entry {
        name,
        status: Status::Modelled(meaning),
    }
}

const fn nothing(name: &'static str, meaning: &'static str) -> Entry {
    Entry {
        name,
        status: Status::Nothing(meaning),
    }
}

const fn no(name: &'static str, why: &'static str) -> Entry {
    Entry {
        name,
        status: Status::Unmodelled(why),
    }
}

const LEVEL: &str = "it works on the level being built, outside the vault";
const LAYOUT: &str = "a procedural level layout library";
const PLAY: &str = "acts during play";
const LEVEL_LOOK: &str = "the level's floor or wall colour or tile, as LFLOORCOL, LROCKCOL and their tiles set it: the preview draws crawl's default colours, and no tiles";

/// Every function and table of crawl's vault API the corpus uses.
pub const API: &[Entry] = &[
    // The map functions (headers and their Lua forms).
    m(
        "subst",
        "SUBST: every cell of the key glyphs becomes a weighted choice",
    ),
    m(
        "nsubst",
        "NSUBST: the key glyphs' cells, shuffled, replaced segment by segment",
    ),
    m("shuffle", "SHUFFLE: glyphs or blocks of glyphs permuted"),
    m(
        "clear",
        "CLEAR: the glyphs become blank (not part of the vault)",
    ),
    m("kfeat", "KFEAT: the glyphs' terrain at placement"),
    m("kmons", "KMONS: the glyphs' monster slots at placement"),
    m("kitem", "KITEM: the glyphs' items at placement"),
    m("kmask", "KMASK: the glyphs' placement flags"),
    m(
        "kprop",
        "KPROP: properties of the cells holding the glyphs now",
    ),
    m("mons", "MONS: a monster slot for the digits 1-7"),
    m("item", "ITEM: an item slot for the letters d-k"),
    m(
        "colour",
        "COLOUR: the colour the cells holding the glyphs are drawn in",
    ),
    m(
        "ftile",
        "FTILE: the floor tile of the cells holding the glyphs",
    ),
    m(
        "rtile",
        "RTILE: the wall tile of the cells holding the glyphs",
    ),
    m("tile", "TILE: the tile of the cells holding the glyphs"),
    m(
        "fheight",
        "FHEIGHT: the height of the cells holding the glyphs",
    ),
    m("tags", "TAGS: adds tags, or answers them"),
    m("tags_remove", "removes tags"),
    m("orient", "ORIENT: sets or answers the orientation"),
    m(
        "depth",
        "DEPTH: where the vault may go (the preview's default place)",
    ),
    m("place", "PLACE: where the vault goes"),
    m("desc", "DESC: the vault's description"),
    m("welcome", "WELCOME: a message on arrival"),
    m("chance", "CHANCE: how often the vault is tried"),
    m(
        "weight",
        "WEIGHT: how often the vault is picked (and a subvault among its tag)",
    ),
    m("order", "ORDER: the order of portal vaults"),
    m("depth_weight", "WEIGHT for some depths"),
    m("depth_chance", "CHANCE for some depths"),
    m("default_depth", "the file's default depth"),
    m("lfloorcol", "LFLOORCOL: the level's floor colour"),
    m("lrockcol", "LROCKCOL: the level's wall colour"),
    m("lfloortile", "LFLOORTILE: the level's floor tile"),
    m("lrocktile", "LROCKTILE: the level's wall tile"),
    m("marker", "MARKER: a marker on the glyphs' cells"),
    m(
        "lua_marker",
        "a Lua marker on the glyphs' cells (it acts during play)",
    ),
    m(
        "subvault",
        "SUBVAULT: the glyphs' area filled with a vault of a tag from the workspace",
    ),
    m("map", "adds a map row, or answers the rows"),
    m("name", "the vault's name"),
    m("has_tag", "whether the vault has a tag"),
    m("mapsize", "the map's width and height"),
    m("is_valid_coord", "whether a cell lies on the map"),
    m("width", "the map's width"),
    m("height", "the map's height"),
    m("mapgrd", "mapgrd[x][y]: reads or sets a glyph"),
    m(
        "is_validating",
        "false: a preview is a placement, not crawl's compile-time check",
    ),
    m(
        "is_subvault",
        "whether the vault is being placed as a subvault",
    ),
    m("subvault_size", "the size of the space a subvault fills"),
    m(
        "default_subvault_glyphs",
        "the map replaced by the subvault's space",
    ),
    m("set_feature_name", "renames a feature in descriptions"),
    m(
        "set_random_mon_list",
        "the level's list of random monsters (for 0, 8 and 9)",
    ),
    nothing("set_border_fill_type", "the fill around an encompass map"),
    m("extend_map", "grows the map, filling the new cells"),
    m("fill_area", "fills a rectangle of the map"),
    m("replace_area", "replaces glyphs inside a rectangle"),
    m("replace_random", "replaces one random cell holding a glyph"),
    m("find_in_area", "whether a rectangle holds a glyph"),
    m("gly_point", "the first cell holding a glyph"),
    m("gly_points", "every cell holding a glyph"),
    m(
        "glyphs_connected",
        "whether a walker goes between cells of the glyphs",
    ),
    m("orig_glyphs_connected", "as glyphs_connected"),
    m(
        "has_exit_from_glyph",
        "whether a walker from the glyph reaches the map's edge",
    ),
    m(
        "hook",
        "registers a function for a step of the placement (pre_main, post_main and post_place run)",
    ),
    no("smear_map", "random smearing of glyphs over the map"),
    no("spotty_map", "random spots of floor grown over the map"),
    no("widen_paths", "random widening of paths"),
    no(
        "remove_isolated_glyphs",
        "random removal of isolated glyphs",
    ),
    no("connect_adjacent_rooms", "random joining of rooms"),
    no(
        "fill_disconnected",
        "flood-based filling of disconnected areas",
    ),
    no("add_pools", "random pools"),
    no("join_the_dots", "corridors drawn between points"),
    no("delve", "a cave carver"),
    no("make_circle", "shape drawing of the layout library"),
    no("make_box", "shape drawing of the layout library"),
    no("make_box_doors", "shape drawing of the layout library"),
    no("make_round_box", "shape drawing of the layout library"),
    no("make_diamond", "shape drawing of the layout library"),
    no("make_irregular_box", "shape drawing of the layout library"),
    no("octa_room", "shape drawing of the layout library"),
    no("replace_first", "directional search and replace"),
    no("count_antifeature_in_box", "counting of the layout library"),
    no("count_neighbors", "counting of the layout library"),
    no("farthest_from", "distance search of the layout library"),
    no("flood", "flood fill of the layout library"),
    no("primary_vault_dimensions", LEVEL),
    // crawl: randomness, messages.
    m("crawl.random2", "a random number 0 ..= n-1"),
    m("crawl.random_range", "a random number in a range"),
    m("crawl.coinflip", "true one time in two"),
    m("crawl.one_chance_in", "true one time in n"),
    m("crawl.x_chance_in_y", "true x times in y"),
    m("crawl.random_real", "a random real in [0, 1)"),
    m("crawl.roll_dice", "the sum of dice"),
    m("crawl.random2avg", "the average of several draws"),
    m("crawl.div_rand_round", "a division rounded at random"),
    m(
        "crawl.random_element",
        "a random key of a table, weighted by its values",
    ),
    m("crawl.rng_wrap", "calls the function"),
    m(
        "crawl.game_started",
        "true: levels are built while a game runs",
    ),
    m("crawl.unavailable_god", "false: every god is available"),
    m("crawl.make_name", "a random name"),
    m("crawl.split_bytes", "a string's bytes"),
    nothing("crawl.mpr", PLAY),
    nothing("crawl.dpr", PLAY),
    nothing("crawl.more", PLAY),
    nothing("crawl.clear_messages", PLAY),
    nothing("crawl.god_speaks", PLAY),
    nothing("crawl.take_note", PLAY),
    nothing("crawl.mark_milestone", PLAY),
    nothing("crawl.tutorial_msg", PLAY),
    nothing("crawl.tutorial_hint", PLAY),
    nothing("crawl.redraw_view", PLAY),
    nothing("crawl.set_max_runes", "the game's rune goal"),
    nothing("crawl.mark_game_won", PLAY),
    no("crawl.grammar", "crawl's text grammar"),
    // you: the player's situation.
    m("you.branch", "the branch of the preview's place"),
    m("you.depth", "the depth of the preview's place"),
    m("you.absdepth", "the absolute depth of the preview's place"),
    m("you.depth_fraction", "how deep in its branch the place is"),
    m(
        "you.at_branch_bottom",
        "whether the place is its branch's last level",
    ),
    m("you.in_branch", "whether the place is in a branch"),
    m("you.where", "the place, as Branch:depth"),
    m("you.god", "the preview's god"),
    m("you.race", "the preview's species"),
    m("you.name", "a name"),
    m("you.uniques", "false: a fresh game has met no unique"),
    m("you.unrands", "false: no unrandart has been made"),
    m("you.have_rune", "false: a fresh game has no runes"),
    m("you.num_runes", "0"),
    m("you.have_orb", "false"),
    m("you.turns", "0"),
    m("you.base_skill", "0"),
    m("you.mutation", "0"),
    m("you.piety_rank", "0"),
    m("you.silenced", "false"),
    m(
        "you.see_cell",
        "false: nothing is seen while the level is built",
    ),
    m("you.is_level_on_stack", "false"),
    m("you.pos", "the origin"),
    nothing("you.teleport_to", PLAY),
    m("you.monster", "nil"),
    // dgn: the level builder.
    m("dgn.GXM", "the level's width, 80"),
    m("dgn.GYM", "the level's height, 70"),
    m("dgn.max_bounds", "the level's size"),
    m("dgn.builder_bounds", "the level's inner rectangle"),
    m("dgn.point", "a point"),
    m(
        "dgn.point_in_radius",
        "whether two points are within a radius",
    ),
    m("dgn.br_depth", "a branch's number of levels"),
    m("dgn.br_exists", "true"),
    m("dgn.level_name", "the place's name"),
    m(
        "dgn.loot_potions",
        "crawl's list of loot potions (drawn as a random potion)",
    ),
    m(
        "dgn.loot_scrolls",
        "crawl's list of loot scrolls (drawn as a random scroll)",
    ),
    m(
        "dgn.good_scrolls",
        "crawl's list of good scrolls (drawn as a random scroll)",
    ),
    m(
        "dgn.aux_armour",
        "crawl's list of auxiliary armour (drawn as random armour)",
    ),
    m("dgn.good_aux_armour", "as aux_armour, good items"),
    m("dgn.randart_aux_armour", "as aux_armour, randarts"),
    m(
        "dgn.delayed_decay",
        "an item that starts decaying when seen: the item",
    ),
    m(
        "dgn.delayed_decay_extra",
        "as delayed_decay, with more items",
    ),
    m(
        "dgn.set_random_mon_list",
        "the level's list of random monsters",
    ),
    m(
        "dgn.random_entry_arg",
        "a spec of alternatives with an argument added to each",
    ),
    m(
        "dgn.random_item_def",
        "an item definition drawn from weighted names",
    ),
    m("dgn.monster_weapon", "a weapon for a monster"),
    m(
        "dgn.wizlab_chance_percent",
        "5: the share of levels (percent) that try a wizard's laboratory portal",
    ),
    m(
        "dgn.desolation_chance_percent",
        "5: the share of levels (percent) that try a desolation portal",
    ),
    m(
        "dgn.persist",
        "data kept across levels (empty in a fresh game)",
    ),
    nothing("dgn.terrain_changed", PLAY),
    nothing("dgn.tile_feat_changed", PLAY),
    nothing("dgn.fprop_changed", PLAY),
    nothing("dgn.seen_destroy_feat", PLAY),
    nothing("dgn.reset_feature_name_for", PLAY),
    nothing("dgn.set_branch_epilogue", "a branch's end-of-level script"),
    m(
        "dgn.map_parameters",
        "the tags the placements that led to the vault searched for, as its own tags name them",
    ),
    no("dgn.place_maps", LEVEL),
    no("dgn.place_map", LEVEL),
    m(
        "dgn.map_by_tag",
        "a vault of the workspace with the tag, allowed here, picked by weight (or nil)",
    ),
    no("dgn.map_by_name", LEVEL),
    no("dgn.resolve_map", LEVEL),
    no("dgn.create_monster", LEVEL),
    no("dgn.create_item", LEVEL),
    no("dgn.mons_at", LEVEL),
    no("dgn.mons_from_mid", LEVEL),
    no("dgn.grid", LEVEL),
    no("dgn.is_passable", LEVEL),
    no("dgn.in_vault", LEVEL),
    no("dgn.vault_at", LEVEL),
    no("dgn.colour_at", LEVEL),
    no("dgn.fprop_at", LEVEL),
    no("dgn.stash_items", LEVEL),
    no("dgn.place_cloud", LEVEL),
    no("dgn.apply_area_cloud", LEVEL),
    no("dgn.delete_cloud", LEVEL),
    no("dgn.apply_tide", LEVEL),
    no("dgn.floor_halo", LEVEL),
    no("dgn.place_transporter", LEVEL),
    no("dgn.find_marker_positions_by_prop", LEVEL),
    no("dgn.find_markers_by_prop", LEVEL),
    nothing("dgn.change_floor_colour", LEVEL_LOOK),
    nothing("dgn.change_floor_tile", LEVEL_LOOK),
    nothing("dgn.change_rock_tile", LEVEL_LOOK),
    m(
        "dgn.get_floor_colour",
        "the floor colour last given to dgn.change_floor_colour, else lightgrey",
    ),
    no("dgn.br_entrance", LEVEL),
    no("dgn.fnum", "crawl's feature numbers"),
    no("dgn.feature_name", "crawl's feature numbers"),
    no("dgn.gly_point", "the original map's glyphs"),
    no("dgn.has_exit_from", LEVEL),
    no("dgn.layout_swamp", LAYOUT),
    // util and iter: crawl's helper library.
    m("util.random_from", "a random element of a list"),
    m(
        "util.random_weighted_from",
        "a random element of a list, weighted",
    ),
    m(
        "util.random_choose_weighted",
        "a random item of {item, weight} pairs",
    ),
    m("util.random_choose_weighted_i", "the index of such an item"),
    m("util.random_subset", "n distinct random elements"),
    m("util.random_range_real", "a random real in a range"),
    m("util.contains", "whether a list holds a value"),
    m("util.join", "a list joined by a separator"),
    m("util.keys", "a table's keys"),
    m("util.sort", "a list sorted"),
    m("iter.subvault_iterator", "the cells of a subvault's space"),
    m("iter.rect_iterator", "the cells of a rectangle"),
    no("iter.circle_iterator", "cells of the level"),
    no("iter.slave_iterator", PLAY),
    no("iter.stash_iterator", PLAY),
    // Markers and play-time helpers of crawl's Lua files.
    nothing("fog_machine", "a marker that makes clouds during play"),
    nothing(
        "chained_fog_machine",
        "a marker that makes clouds during play",
    ),
    nothing("tw_machine", "a marker that makes clouds during play"),
    nothing("props_marker", "a marker holding properties"),
    nothing("timed_marker", "a marker acting after some turns"),
    nothing("timed_msg", "a message after some turns"),
    nothing("restrict_door", "a marker on doors"),
    nothing("one_way_stair", "a marker on stairs"),
    nothing("portal_desc", "a marker describing a portal"),
    nothing("transp_loc", "a transporter's marker"),
    nothing("transp_dest_loc", "a transporter destination's marker"),
    nothing("message_at_spot", "a message during play"),
    nothing("function_at_spot", PLAY),
    nothing("trove_marker", PLAY),
    nothing("acq_on_sight", PLAY),
    nothing("hatch_name", "a hatch's marker"),
    nothing("hatch_dest_name", "a hatch's marker"),
    nothing("Triggerable.synchronized_markers", PLAY),
    nothing(
        "TriggerableFunction",
        "a marker class whose objects act during play",
    ),
    nothing("DgnTriggerer", "what sets off a marker during play"),
    nothing(
        "MonPropsMarker",
        "a marker class whose objects act during play",
    ),
    nothing("time_messages", "messages during play"),
    nothing(
        "callback",
        "the table of functions markers call during play",
    ),
    nothing("colour.add_colour", "a colour that changes during play"),
    nothing(
        "crawl_require",
        "loads one of crawl's Lua files (levkit's model of them is always there)",
    ),
    m("count_pan_runes", "0: a fresh game has no Pandemonium rune"),
    m("init_hm_decor_walldepth", "the walls' kind by depth"),
    m(
        "serpent_of_hell_setup",
        "the Serpent of Hell, one time in four",
    ),
    m("door_vault_setup", "the door vaults' loot and runed doors"),
    m("master_elementalist_setup", "a master elementalist"),
    m("hall_of_blades_weapon", "two dancing weapons of rare types"),
    m(
        "ks_random_setup",
        "kennysheep vaults' doors, border, inner walls, decorations and lava",
    ),
    m(
        "ghost_setup",
        "ghost vaults' tags, their chance, and rock for `c` in the Vaults",
    ),
    m(
        "ghost_good_loot",
        "ghost vaults' two item slots, better with depth",
    ),
    m(
        "lone_ghost_extra_loot",
        "lone ghost vaults' `d` and `e` loot by place",
    ),
    m(
        "lone_ghost_guarded_loot",
        "the item under a lone ghost, by place",
    ),
    m(
        "setup_armoury_orcs",
        "the orc armoury's warrior, knight and warlord",
    ),
    m(
        "setup_gozag_gold",
        "Gozag's ghost vault: gold piles by depth",
    ),
    m(
        "setup_xom_dancing_weapon",
        "Xom's ghost vault: a dancing weapon of chaos by depth",
    ),
    m(
        "gauntlet_setup",
        "the Gauntlet's transporters, tier 1 arenas, random monsters",
    ),
    m(
        "gauntlet_arena_setup",
        "a Gauntlet arena: a monster set of its tier, loot, monsters, terrain",
    ),
    m("gauntlet_arena_set_tier", "the tier of the next arenas"),
    m(
        "gauntlet_arena_custom_extra_items",
        "the next arenas' extra items",
    ),
    m(
        "gauntlet_arena_item_setup",
        "a Gauntlet arena's loot (part of gauntlet_arena_setup)",
    ),
    m(
        "gauntlet_exit_loot",
        "the Gauntlet exit's pile of 7 to 16 items",
    ),
    no("tutorial_intro", "the tutorial"),
    no("tutorial_msg", "the tutorial"),
    no("ziggurat_level", "the ziggurat's level builder"),
    no("build_vaults_layout", "the Vaults' level builder"),
    no("build_vaults_big_room_layout", "the Vaults' level builder"),
    no(
        "build_vaults_chaotic_city_layout",
        "the Vaults' level builder",
    ),
    no("build_vaults_cross_layout", "the Vaults' level builder"),
    no("build_vaults_maze_layout", "the Vaults' level builder"),
    no(
        "build_vaults_maze_bifur_layout",
        "the Vaults' level builder",
    ),
    no(
        "build_vaults_maze_snakey_layout",
        "the Vaults' level builder",
    ),
    no("build_vaults_ring_layout", "the Vaults' level builder"),
    no("layout_basic", LAYOUT),
    no("layout_bigger_room", LAYOUT),
    no("layout_chaotic_city", LAYOUT),
    no("layout_primitive_omnigrid", LAYOUT),
    no("layout_shoals", LAYOUT),
    no("theme", LAYOUT),
    no("zonify", LAYOUT),
    no("procedural", LAYOUT),
    no("geoelf", LAYOUT),
    no("omnigrid", LAYOUT),
    no("hyper", LAYOUT),
    no("primitive", LAYOUT),
    no("minimum_map_area", LAYOUT),
    no("layout", LAYOUT),
    no("vector", LAYOUT),
    no("complex", LAYOUT),
    no("mons", PLAY),
    no("feat", "crawl's feature queries"),
    no("view", PLAY),
    no("travel", PLAY),
];

/// The entry of a name.
pub fn entry(name: &str) -> Option<&'static Entry> {
    API.iter().find(|e| e.name == name)
}
