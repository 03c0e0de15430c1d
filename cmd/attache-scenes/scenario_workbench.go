package main

// The workbench scenes: a resource subscribed from the inspector going
// stale after server-everything's toggle-subscriber-updates, sent from the
// console, with the Subscriptions view over it; and the console after a
// Resend, the resent request chosen with its new id; and the Tools tab
// after a call of server-everything's echo.
func init() {
	scenarios["subscriptions"] = subscriptionsView
	scenarios["console-resend"] = consoleResend
	scenarios["tools-call"] = toolsCall
}

// toolsCall chooses server-everything's echo in the Tools tab, fills its
// form (through the JSON tab, as typing there does), shows the form again
// and taps Call: the form above, the result below.
func toolsCall(s *script) error {
	if err := s.try(func() error { return s.app.SelectServer("everything", "") }); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	if err := s.try(func() error { return s.app.ChooseTool("echo") }); err != nil {
		return err
	}
	s.do(func() { s.app.SetToolJSON(`{"message":"hello from the tools panel"}`) })
	s.do(s.app.ShowToolForm)
	if err := s.try(s.app.CallTool); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	s.do(func() { s.app.ShowToolEntry(0) })
	return nil
}

// startUpdates starts server-everything's resource updates from the
// console, as a tester would: a resources/read edited into the call of
// its toggleUpdates tool (the console's sends pass the consent gate).
func (s *script) startUpdates() error {
	s.do(s.app.ShowConsole)
	if err := s.try(func() error { return s.app.ConsoleChooseRequest("resources/read") }); err != nil {
		return err
	}
	return s.try(func() error { return s.app.ConsoleEditAndSend(toggleUpdates) })
}

// toggleUpdates is server-everything's tool that starts its updates.
const toggleUpdates = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"toggle-subscriber-updates","arguments":{}}}`

// subscriptionsView subscribes to a document of server-everything, starts
// its updates from the console, waits for the inspector's body to go
// stale, and opens the Subscriptions view.
func subscriptionsView(s *script) error {
	if err := s.readListed("everything", "demo://resource/static/document/architecture.md"); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	if err := s.try(s.app.InspectorSubscribe); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	if err := s.startUpdates(); err != nil {
		return err
	}
	if err := s.until("the inspector's body to go stale", s.app.InspectorStale); err != nil {
		return err
	}
	s.do(s.app.ShowSubscriptions)
	return s.settle()
}

// consoleResend reads a demo memory, opens the console on the read's
// request and resends it.
func consoleResend(s *script) error {
	id, err := s.demoID()
	if err != nil {
		return err
	}
	s.do(func() { s.app.ReadID(id) })
	if err := s.settle(); err != nil {
		return err
	}
	s.do(s.app.ShowConsole)
	if err := s.try(func() error { return s.app.ConsoleChooseRequest("resources/read") }); err != nil {
		return err
	}
	s.do(s.app.ConsoleResend)
	return s.settle()
}
