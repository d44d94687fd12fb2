vim.api.nvim_create_user_command("LevkitPreview", function()
  require("levkit").preview()
end, { desc = "Show the level under the cursor, kept in sync with edits" })
